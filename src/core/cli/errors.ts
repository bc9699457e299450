// What every command shares: the one kind of error meant for the operator.

/** An error meant for the operator: printed as one line, exit status 1. */
export class CliError extends Error {}
