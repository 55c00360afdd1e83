// A request or tokenizer the prompt cannot be built from (a chat template that returns no text, a token the
// vocabulary lacks): a coded message (lib/i18n/message.ts), English in `.message`.
import { CodedError } from '../i18n/message';

export class PromptError extends CodedError {
  override name = 'PromptError';
}
