/** Bad input for a schedule command; `field` names the option at fault. Its own module: the CLI checks for it before loading the reports. */
export class ScheduleInputError extends Error {
  constructor(
    readonly field: 'account' | 'municipios' | 'format' | 'lang',
    message: string,
  ) {
    super(message);
    this.name = 'ScheduleInputError';
  }
}
