// How the page names the prompt a run shows ("call 2 of 2, the last, as sent", "whole conversation").
import type { ShownContext } from '../../lib/state/analysed';
import type { T } from './i18n';

export function contextLabel(t: T, ctx: ShownContext): string {
  if (ctx.kind === 'conversation') return t('context.conversation');
  const n = ctx.index + 1;
  return n === ctx.calls ? t('context.lastCall', { n, calls: ctx.calls }) : t('context.call', { n, calls: ctx.calls });
}
