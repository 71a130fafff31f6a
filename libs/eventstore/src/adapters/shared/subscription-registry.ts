import type { EventStore, SubscribeOptions, Subscription } from '../../event-store.port';
import { catchUpSubscription } from '../../subscriptions/catch-up-subscription';

/**
 * The subscriptions a store has handed out, so that closing the store ends
 * them (as the port promises) instead of leaving them to fail on a closed
 * connection.
 */
export class SubscriptionRegistry {
  private readonly open = new Set<Subscription>();

  subscribe(store: Pick<EventStore, 'readAll' | 'waitForAppend'>, options?: SubscribeOptions): Subscription {
    const subscription = catchUpSubscription(store, options);
    this.open.add(subscription);
    return {
      [Symbol.asyncIterator]: () => subscription[Symbol.asyncIterator](),
      close: async () => {
        this.open.delete(subscription);
        await subscription.close();
      },
    };
  }

  async closeAll(): Promise<void> {
    const subscriptions = [...this.open];
    this.open.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
  }
}
