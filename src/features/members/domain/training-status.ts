// Training statuses (VATSIM conventions). A training is open while its status is >= 0.

export const TRAINING_STATUS_DESCRIPTIONS: ReadonlyMap<number, string> = new Map([
  [-4, 'Closed by system'],
  [-3, 'Closed by student'],
  [-2, 'Closed by staff'],
  [-1, 'Completed'],
  [0, 'In queue'],
  [1, 'Pre-training'],
  [2, 'Active training'],
  [3, 'Awaiting exam'],
]);

export const OPEN_TRAINING_MIN_STATUS = 0;

export function isOpenTraining(status: number): boolean {
  return status >= OPEN_TRAINING_MIN_STATUS;
}

export function trainingStatusDescription(status: number): string {
  return TRAINING_STATUS_DESCRIPTIONS.get(status) ?? `Status ${status}`;
}
