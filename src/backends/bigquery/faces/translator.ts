/** BigQuery's translator face: IR -> GoogleSQL (read-only: a mutation is not supported). */
import type { Translator } from '../../faces/translator.js';
import { notSupported } from '../translate/context.js';
import { translateRootField } from '../translate/select.js';

export const translator: Translator = {
  kind: 'bigquery',
  translateRootField,
  translateMutation: () => {
    throw notSupported('mutations');
  },
};
