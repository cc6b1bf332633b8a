/** Resolves on the first SIGINT or SIGTERM: how a serving process knows it should stop. */
export const stopSignal = (): Promise<void> =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
