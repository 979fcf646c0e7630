/** PostgreSQL's translator face: IR -> statements (the compiler threads load this and its translate/ only). */
import type { Translator } from '../../faces/translator.js';
import { translateMutation } from '../translate/mutation.js';
import { translateLiveField } from '../translate/multiplexed.js';
import { translateRootField } from '../translate/select.js';

export const translator: Translator = { kind: 'postgres', translateRootField, translateLiveField, translateMutation };
