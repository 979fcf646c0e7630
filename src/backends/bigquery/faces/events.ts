/** BigQuery's events face: none (no event triggers). */
import type { EventsFace } from '../../faces/events.js';

export const events: EventsFace = { kind: 'bigquery' };
