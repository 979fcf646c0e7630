/**
 * The console's Events section (docs/console.md "Events"), in a real browser against a real
 * engine and a real webhook server: an event trigger created through the form delivers a row
 * inserted in the database and shows it in its logs, redelivers, refuses an invalid definition
 * with the engine's path, is invoked by hand from a row, and is deleted; a one-off event
 * scheduled for now is delivered and listed; a cron trigger is created (into the metadata),
 * listed and deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionHandler } from '../support/action-handler.js';
import { ADMIN, expectedFailure, exported, openConsole, signIn, type ConsoleSetting } from '../support/console.js';
import { eventRows, until } from '../support/events.js';

let s: ConsoleSetting;
const hook = new ActionHandler({
  '/orders': () => ({ body: { ok: true } }),
  '/manual': () => ({ body: { manual: true } }),
  '/one-off': () => ({ body: { scheduled: true } }),
});

const sideNav = () => s.page.getByRole('navigation', { name: 'Events' });
const tab = (name: string) => s.page.getByRole('navigation', { name: /trigger|scheduled/i }).getByRole('link', { name, exact: true });

/** Clicks "Refresh" until the table `name` shows `text`. */
async function refreshUntil(table: string, text: string | RegExp): Promise<void> {
  await expect
    .poll(async () => {
      await s.page.getByRole('button', { name: 'Refresh' }).click();
      await s.page.waitForTimeout(150);
      const t = s.page.getByRole('table', { name: table });
      return (await t.count()) > 0 ? t.innerText() : '';
    })
    .toMatch(text);
}

beforeAll(async () => {
  await hook.start();
  // Scheduled events are found by polling: a short interval keeps the test short.
  s = await openConsole('events', { SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '200', EVENTS_TEST_MANUAL_HOOK: hook.url('/manual'), EVENTS_TEST_SHOP: 'south' });
  await s.db.sql('CREATE TABLE public.orders (id serial PRIMARY KEY, item text NOT NULL, qty int NOT NULL DEFAULT 1)');
  expect((await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: { schema: 'public', name: 'orders' } } }, ADMIN)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await s?.close();
  await hook.stop();
});

describe('event triggers', () => {
  it('refuses an invalid trigger with the engine\'s message and path', async () => {
    const { page } = s;
    await signIn(s, '/console/events');
    await expect.poll(() => page.getByText('No event triggers yet').isVisible()).toBe(true);
    await s.browser.shot('no-triggers');
    await sideNav().getByRole('link', { name: 'Create event trigger' }).click();
    await page.getByLabel('Trigger name', { exact: true }).fill('orders_created');
    await page.getByLabel('Insert', { exact: true }).check();
    await s.browser.shot('create-without-webhook');
    await page.getByRole('button', { name: 'Create event trigger' }).click();
    const alert = page.getByRole('form', { name: 'Create event trigger' }).getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('must provide webhook or webhook_from_env');
    expect(await alert.textContent()).toContain('(parse-failed at $.args)');
    await s.browser.shot('create-refused');
    await page.getByLabel('Webhook URL', { exact: true }).fill('not a url');
    await page.getByRole('button', { name: 'Create event trigger' }).click();
    await expect.poll(() => alert.textContent()).toMatch(/^invalid webhook URL.*\(parse-failed at \$\.args\.webhook\)$/);
    await s.browser.shot('create-refused-url');
    // The refused calls logged their HTTP 400s in the browser: the errors the test asked for.
    await expectedFailure(s, 400, 2);
    expect(JSON.stringify(await exported(s))).not.toContain('orders_created');
  });

  it('creates a trigger that delivers an inserted row, shown in its logs', async () => {
    const { page } = s;
    await page.getByLabel('Update', { exact: true }).check();
    await page.getByLabel('Update column item', { exact: true }).uncheck();
    await page.getByLabel('Update column qty', { exact: true }).uncheck();
    await page.getByLabel('Webhook URL', { exact: true }).fill(hook.url('/orders'));
    await page.getByLabel('Number of retries', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name', { exact: true }).fill('x-shop');
    await page.getByLabel('Header 1 value', { exact: true }).fill('north');
    await s.browser.shot('create-filled');
    await page.getByRole('button', { name: 'Create event trigger' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'orders_created' }).isVisible()).toBe(true);
    const [stored] = (await exported(s)).sources[0].tables[0].event_triggers;
    expect(stored).toMatchObject({
      name: 'orders_created',
      definition: { enable_manual: false, insert: { columns: '*' }, update: { columns: ['id'] } },
      webhook: hook.url('/orders'),
      retry_conf: { num_retries: 2, interval_sec: 10, timeout_sec: 60 },
      headers: [{ name: 'x-shop', value: 'north' }],
    });
    expect(await sideNav().getByRole('link', { name: 'orders_created' }).getAttribute('aria-current')).toBe('page');

    await expect.poll(() => page.getByText('No events.').isVisible()).toBe(true);
    // Auto-refresh reads the list again every few seconds, without a click.
    await page.getByLabel('Auto-refresh', { exact: true }).check();
    await s.db.sql("INSERT INTO public.orders (item) VALUES ('tea')");
    await expect.poll(async () => ((await page.getByRole('table', { name: 'Processed events' }).count()) > 0 ? page.getByRole('table', { name: 'Processed events' }).innerText() : '')).toContain('delivered');
    await page.getByRole('table', { name: 'Processed events' }).getByRole('row').nth(1).getByText('Invocations', { exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: /^Invocations of event / }).innerText()).toContain('200');
    await s.browser.shot('processed-events');
    const call = hook.callsTo('/orders')[0]!;
    expect(call.headers['x-shop']).toBe('north');
    expect(call.body).toMatchObject({ trigger: { name: 'orders_created' }, table: { schema: 'public', name: 'orders' }, event: { op: 'INSERT', data: { old: null, new: { item: 'tea', qty: 1 } } } });

    await tab('Invocation logs').click();
    await refreshUntil('Invocation logs', /200/);
    const logs = page.getByRole('table', { name: 'Invocation logs' });
    const latest = logs.getByRole('row').nth(1);
    await latest.getByText('Request', { exact: true }).click();
    await latest.getByText('Response', { exact: true }).click();
    expect(await logs.innerText()).toContain('"item": "tea"');
    // The webhook's answer as recorded: its body as the text it was.
    expect(await logs.innerText()).toContain('"body": "{\\"ok\\":true}"');
    await s.browser.shot('invocation-logs');
  });

  it('redelivers an event', async () => {
    const { page } = s;
    await tab('Processed events').click();
    await refreshUntil('Processed events', /delivered/);
    await page.getByRole('button', { name: /^Redeliver event / }).first().click();
    await expect.poll(() => hook.callsTo('/orders').length).toBe(2);
    await tab('Invocation logs').click();
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByRole('table', { name: 'Invocation logs' }).getByRole('row').count();
      })
      .toBe(3);
    await s.browser.shot('redelivered');
  });

  it('shows an event waiting for a retry under pending events', async () => {
    const { page } = s;
    await hook.stop();
    // The webhook is down: the event fails its first try and waits 10 s for the next.
    await s.db.sql("INSERT INTO public.orders (item) VALUES ('coffee')");
    await tab('Pending events').click();
    await refreshUntil('Pending events', /next try/);
    await s.browser.shot('pending-retry');
    await hook.start(hook.port);
    await page.getByRole('button', { name: /^Redeliver event / }).first().click();
    await expect.poll(() => hook.callsTo('/orders').some((c) => c.body.event.data.new.item === 'coffee')).toBe(true);
  });

  it('modifies a trigger (replace) to be invoked from the console, and invokes it on a row', async () => {
    const { page } = s;
    await tab('Modify').click();
    await page.getByLabel('Via console', { exact: true }).check();
    await page.getByLabel('Webhook from', { exact: true }).selectOption('env');
    await page.getByLabel('Webhook env var', { exact: true }).fill('EVENTS_TEST_MANUAL_HOOK');
    await page.getByLabel('Header 1 type', { exact: true }).selectOption('env');
    await page.getByLabel('Header 1 env var', { exact: true }).fill('EVENTS_TEST_SHOP');
    await s.browser.shot('modify');
    await page.getByRole('button', { name: 'Save event trigger' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Event trigger saved.');
    await expect.poll(async () => (await exported(s)).sources[0].tables[0].event_triggers[0].definition.enable_manual).toBe(true);
    const [stored] = (await exported(s)).sources[0].tables[0].event_triggers;
    expect(stored).toMatchObject({
      webhook_from_env: 'EVENTS_TEST_MANUAL_HOOK',
      headers: [{ name: 'x-shop', value_from_env: 'EVENTS_TEST_SHOP' }],
      definition: { insert: { columns: '*' }, update: { columns: ['id'] } },
      retry_conf: { num_retries: 2 },
    });
    expect(stored.webhook).toBeUndefined();

    await tab('Invoke').click();
    const rows = page.getByRole('table', { name: 'Rows' });
    await expect.poll(() => rows.innerText()).toContain('coffee');
    await s.browser.shot('invoke-rows');
    await page.getByRole('button', { name: 'Invoke on row 1' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/Invoked: event [0-9a-f-]{36}/);
    await expect.poll(() => hook.callsTo('/manual').length).toBe(1);
    expect(hook.callsTo('/manual')[0]!.body.event).toMatchObject({ op: 'MANUAL', data: { old: null, new: { id: 1, item: 'tea', qty: 1 } } });
    expect(hook.callsTo('/manual')[0]!.headers['x-shop']).toBe('south');
    await s.browser.shot('invoked');
  });

  it('pages through the processed events, 50 at a time', async () => {
    const { page } = s;
    await s.db.sql("INSERT INTO public.orders (item) SELECT 'bulk ' || n FROM generate_series(1, 55) n");
    const all = await until('every event delivered', async () => {
      const rows = await eventRows(s.db, 'orders_created');
      return rows.length === 58 && rows.every((r) => r.delivered) && rows;
    });
    expect(all).toHaveLength(58);
    await tab('Processed events').click();
    const rows = () => page.getByRole('table', { name: 'Processed events' }).getByRole('row').count();
    await expect.poll(rows).toBe(51);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(rows).toBe(9);
    expect(await page.getByRole('navigation', { name: 'Pages' }).innerText()).toContain('Page 2');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await s.browser.shot('processed-page-2');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(rows).toBe(51);
  });

  it('deletes a trigger', async () => {
    const { page } = s;
    await tab('Modify').click();
    await page.getByRole('button', { name: 'Delete event trigger orders_created' }).click();
    await page.getByRole('group', { name: 'Confirm: Delete event trigger orders_created' }).getByRole('button', { name: 'Yes, delete event trigger orders_created' }).click();
    await expect.poll(() => page.getByText('No event triggers yet').isVisible()).toBe(true);
    expect((await exported(s)).sources[0].tables[0].event_triggers).toBeUndefined();
    await s.browser.shot('deleted');
  });
});

describe('one-off scheduled events', () => {
  it('schedules an event for now, delivered and listed with its invocation', async () => {
    const { page } = s;
    await sideNav().getByRole('link', { name: 'One-off scheduled events' }).click();
    await tab('Schedule an event').click();
    await page.getByLabel('Webhook URL', { exact: true }).fill(hook.url('/one-off'));
    await page.getByLabel('Payload (JSON)', { exact: true }).fill('{"greeting": "hello"}');
    await page.getByLabel('Comment', { exact: true }).fill('say hello');
    const transform = { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{"wrapped": {{$body.payload}}, "note": {{$body.comment}}}' } };
    await page.getByLabel('Request transform (JSON, optional)', { exact: true }).fill(JSON.stringify(transform));
    await s.browser.shot('one-off-form');
    await page.getByRole('button', { name: 'Schedule event' }).click();
    await expect.poll(() => hook.callsTo('/one-off').length).toBe(1);
    expect(hook.callsTo('/one-off')[0]!.body).toEqual({ wrapped: { greeting: 'hello' }, note: 'say hello' });
    await tab('Processed events').click();
    await refreshUntil('Processed events', /delivered/);
    await page.getByRole('table', { name: 'Processed events' }).getByRole('row').nth(1).getByText('Invocations', { exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: /^Invocations of event / }).innerText()).toContain('200');
    await s.browser.shot('one-off-processed');
    await tab('Invocation logs').click();
    await refreshUntil('Invocation logs', /200/);
    await s.browser.shot('one-off-logs');
  });

  it('deletes a pending event', async () => {
    const { page } = s;
    await tab('Schedule an event').click();
    await page.getByLabel('Webhook URL', { exact: true }).fill(hook.url('/one-off'));
    await page.getByLabel('Time', { exact: true }).fill('2099-01-01T10:00:00');
    await page.getByRole('button', { name: 'Schedule event' }).click();
    await refreshUntil('Pending events', /2099-01-01/);
    await s.browser.shot('one-off-pending');
    const pending = page.getByRole('table', { name: 'Pending events' });
    await pending.getByRole('button', { name: 'Delete', exact: true }).click();
    await pending.getByRole('group', { name: 'Confirm: Delete' }).getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByText('No events.').isVisible()).toBe(true);
    const left = await s.engine.metadata({ type: 'get_scheduled_events', args: { type: 'one_off', status: ['scheduled'] } }, ADMIN);
    expect(left.body.events).toEqual([]);
  });
});

describe('cron triggers', () => {
  it('creates a cron trigger, previews its runs, lists it and exports it', async () => {
    const { page } = s;
    await sideNav().getByRole('link', { name: 'Create cron trigger' }).click();
    await page.getByLabel('Trigger name', { exact: true }).fill('nightly');
    await page.getByLabel('Webhook URL', { exact: true }).fill(hook.url('/cron'));
    await page.getByLabel('Cron schedule', { exact: true }).fill('0 3 * * *');
    await expect.poll(() => page.getByRole('list', { name: 'Next runs' }).getByRole('listitem').count()).toBe(5);
    expect(await page.getByRole('list', { name: 'Next runs' }).getByRole('listitem').first().textContent()).toMatch(/^\d{4}-\d\d-\d\d 03:00:00 UTC$/);
    await page.getByLabel('Payload (JSON)', { exact: true }).fill('{"job": "cleanup"}');
    await page.getByLabel('Comment', { exact: true }).fill('every night');
    await s.browser.shot('cron-form');
    await page.getByRole('button', { name: 'Create cron trigger' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'nightly' }).isVisible()).toBe(true);
    expect(await sideNav().getByRole('link', { name: 'nightly' }).isVisible()).toBe(true);
    expect((await exported(s)).cron_triggers).toEqual([
      expect.objectContaining({ name: 'nightly', webhook: hook.url('/cron'), schedule: '0 3 * * *', payload: { job: 'cleanup' }, include_in_metadata: true, comment: 'every night' }),
    ]);
    await refreshUntil('Pending events', /scheduled/);
    await s.browser.shot('cron-pending');
  });

  it('modifies a cron trigger (replace)', async () => {
    const { page } = s;
    await tab('Modify').click();
    await page.getByLabel('Cron schedule', { exact: true }).fill('30 4 * * 1');
    await expect.poll(() => page.getByRole('list', { name: 'Next runs' }).getByRole('listitem').first().textContent()).toMatch(/ 04:30:00 UTC$/);
    await page.getByLabel('Include this trigger in the metadata', { exact: true }).uncheck();
    await s.browser.shot('cron-modify');
    await page.getByRole('button', { name: 'Save cron trigger' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Cron trigger saved.');
    // Left out of the export, still listed (get_cron_triggers) and in the side navigation.
    await expect.poll(async () => (await exported(s)).cron_triggers).toBeUndefined();
    const listed = await s.engine.metadata({ type: 'get_cron_triggers', args: {} }, ADMIN);
    expect(listed.body.cron_triggers).toEqual([expect.objectContaining({ name: 'nightly', schedule: '30 4 * * 1', include_in_metadata: false, payload: { job: 'cleanup' } })]);
    expect(await sideNav().getByRole('link', { name: 'nightly' }).isVisible()).toBe(true);
  });

  it('deletes a cron trigger', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Delete cron trigger nightly' }).click();
    await page.getByRole('group', { name: 'Confirm: Delete cron trigger nightly' }).getByRole('button', { name: 'Yes, delete cron trigger nightly' }).click();
    await expect.poll(() => sideNav().getByRole('link', { name: 'nightly' }).count()).toBe(0);
    expect((await s.engine.metadata({ type: 'get_cron_triggers', args: {} }, ADMIN)).body.cron_triggers).toEqual([]);
    await s.browser.shot('cron-deleted');
  });
});
