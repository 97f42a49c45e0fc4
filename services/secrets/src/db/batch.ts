import { batched } from '@hush/common';

type Settled<O> = { ok: true; value: O } | { ok: false; err: unknown };

/**
 * `batched()` from @hush/common (the statements of one event-loop turn become one statement: on
 * our machines a socket write costs more than the query), with each caller isolated from the
 * others: when the batch statement fails (it wrote nothing, being one statement), every item is
 * run again on its own, so one bad row (a constraint, an odd value) fails only its own request
 * and never its neighbours'. `run` must return one result per item, in order.
 */
export function batchedPerItem<I, O>(run: (items: I[]) => Promise<O[]>, options: { maxInFlight?: number } = {}): (item: I) => Promise<O> {
  const settle = (items: I[]): Promise<Settled<O>[]> =>
    run(items).then((values) => {
      if (values.length !== items.length) throw new Error(`batch returned ${values.length} results for ${items.length} items`);
      return values.map((value) => ({ ok: true as const, value }));
    });
  const load = batched<I, Settled<O>>(async (items) => {
    try {
      return await settle(items);
    } catch (err) {
      if (items.length === 1) return [{ ok: false, err }];
      return Promise.all(
        items.map((item) =>
          settle([item]).then(
            ([one]) => one as Settled<O>,
            (e: unknown) => ({ ok: false as const, err: e }),
          ),
        ),
      );
    }
  }, options);
  return async (item) => {
    const result = await load(item);
    if (!result.ok) throw result.err;
    return result.value;
  };
}
