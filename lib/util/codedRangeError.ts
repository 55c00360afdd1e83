// A RangeError that carries its message as a code and parameters (lib/i18n/message): for out-of-range input
// a user can reach (a simulation's size, a block size, a window), where callers and tests expect a RangeError.
// Like CodedError, `.message` is the English text; messageOf / describe / errorData read key, params and where.
import type { Params, StringKey } from '../i18n';
import { messageText, type Message } from '../i18n/message';

export class CodedRangeError extends RangeError implements Message {
  readonly key: StringKey;
  readonly params?: Params;
  readonly where?: string;
  constructor(key: StringKey, params?: Params, where?: string) {
    super(messageText('en', { key, params, where }));
    this.key = key;
    this.params = params;
    this.where = where;
  }
}
