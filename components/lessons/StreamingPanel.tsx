'use client';
// One model's column of a 'streaming' lesson step: the StreamingLLM chart (components/lessons/StreamingChart)
// of the experiment the page ran in that model's worker (useStreamingRun), or its progress / error meanwhile.
import type { StreamingRun } from './useStreamingRun';
import { useDescribe, useT } from '../common/i18n';
import { StreamingChart } from './StreamingChart';

export function StreamingPanel({ model, run, width }: { model: string; run: StreamingRun | undefined; width: number }) {
  const t = useT();
  const describe = useDescribe();
  const r = run?.result ?? null;
  return (
    <div className="panel" data-role="streaming-panel" data-ready={r ? 'true' : 'false'} style={{ display: 'grid', gap: 'var(--sp-1)', minWidth: 0 }}>
      {r ? (
        <>
          <StreamingChart result={r} exportName={`streaming-${model}`} exportTitle={model} width={Math.max(320, width - 24)} />
          <span className="muted" style={{ fontSize: 'var(--fs-xs)' }}>
            {t('streaming.panelNote', { n: r.tokens })}
          </span>
        </>
      ) : run?.error ? (
        <p role="alert" style={{ margin: 0 }}>
          {t('streaming.failed', { message: describe(run.error) })}
        </p>
      ) : (
        <p role="status" className="muted" style={{ margin: 0 }}>
          {run?.progress ? t('streaming.progress', { stage: t(`streaming.stage.${run.progress.stage}`), pct: Math.round(100 * run.progress.fraction) }) : t('streaming.waiting')}
        </p>
      )}
    </div>
  );
}
