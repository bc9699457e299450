// Training statuses in words, for the staff pages (contract §18's numbers).
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  [-4]: 'Closed by the system',
  [-3]: 'Closed by the student',
  [-2]: 'Closed by staff',
  [-1]: 'Completed',
  0: 'In queue',
  1: 'Pre-training',
  2: 'Active training',
  3: 'Awaiting exam',
};
