/** SQL Server's translator face: IR -> T-SQL (FOR JSON PATH). */
import type { Translator } from '../../faces/translator.js';
import { translateMutation } from '../translate/mutation.js';
import { translateLiveField } from '../translate/multiplexed.js';
import { translateRootField } from '../translate/select.js';

export const translator: Translator = { kind: 'mssql', translateRootField, translateLiveField, translateMutation };
