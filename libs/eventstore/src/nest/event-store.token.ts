/** Nest injection token for the EventStore port (provided by the app's composition root). */
export const EVENT_STORE = Symbol('EVENT_STORE');
