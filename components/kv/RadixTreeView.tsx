'use client';
// The prefix cache as an engine keeps it, for one mode's calls: the radix tree (lib/cache/radix buildRadix,
// SGLang-style) drawn in SVG with each edge's token count and first tokens, the calls through every edge,
// each call's hit and new tokens, and vLLM-style chained block hashes (blockHits) as one row per call.
import { useMemo } from 'react';
import type { Accounting } from '../../lib/cache/accounting';
import type { PatternMode } from '../../lib/agent/patterns';
import { blockHits, buildRadix } from '../../lib/cache/radix';
import type { Prompt } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { fitMinEdge, layoutRadix } from '../../lib/view/radixLayout';
import { callColor, callInk, ECON_COLORS, fmtInt, LegendRow, MONO, Swatch } from './econParts';
import { ExportFrame } from '../common/ExportFrame';
import { useT } from '../common/i18n';

/** The tree's widest and narrowest drawing width, px: it follows its container in between. */
const TREE_MAX_W = 1040;
const TREE_MIN_W = 360;
const MIN_EDGE = 130;
const MIN_EDGE_FLOOR = 70;
const ROW_H = 64;
const CHIP = 13;
const CHAR_PX = 6.6;

/** The first tokens of an edge as text, cut to fit `px` pixels. */
function edgeText(prompt: Prompt | undefined, start: number, end: number, px: number): string {
  if (!prompt) return '';
  const max = Math.max(0, Math.floor(px / CHAR_PX) - 1);
  let s = '';
  for (let i = start; i < end && s.length <= max; i++) s += displayToken(prompt.tokens[i]!);
  return s.length > max ? s.slice(0, Math.max(0, max - 1)) + '…' : s;
}

/** `context`: the run's parameters, added to the exports' captions; `width`: the container's width in px. */
export function RadixTreeView({ mode, prompts, accounting, context, width = TREE_MAX_W + 126 }: { mode: PatternMode; prompts: Prompt[]; accounting: Accounting; context?: string; width?: number }) {
  const t = useT();
  const m = { l: 16, t: 28, r: 110 };
  const treeW = Math.max(TREE_MIN_W, Math.min(TREE_MAX_W, Math.floor(width) - m.l - m.r));
  const ids = useMemo(() => prompts.map((p) => p.ids), [prompts]);
  const radix = useMemo(() => buildRadix(ids), [ids]);
  // Short edges keep room for their label (MIN_EDGE px) unless the longest path would then not fit the width.
  const layout = useMemo(() => layoutRadix(radix.nodes, { width: treeW, minEdge: fitMinEdge(radix.nodes, treeW, MIN_EDGE, MIN_EDGE_FLOOR) }), [radix, treeW]);
  const blocks = useMemo(() => blockHits(ids, accounting.blockSize), [ids, accounting.blockSize]);
  const byId = new Map(radix.nodes.map((n) => [n.id, n]));
  const W = m.l + Math.max(treeW, layout.extent) + m.r;
  const H = m.t + layout.rows * ROW_H + 8;
  const yOf = (row: number) => m.t + row * ROW_H + 18;
  const calls = prompts.length;
  const withContext = (caption: string) => (context ? `${caption} · ${context}` : caption);
  // The tree as drawn: every edge with its token range, depth, the calls through it and its tokens as text;
  // each call's insert (hit, new tokens, the earlier call it shares the most with).
  const treeJson = () => ({
    kind: 'radix-tree',
    mode,
    calls,
    sent: ids.map((x) => x.length),
    nodes: radix.nodes.map((n) => ({
      id: n.id,
      parent: n.parent,
      start: n.start,
      end: n.end,
      tokens: n.end - n.start,
      depth: n.depth,
      calls: n.calls,
      source: n.source,
      ids: n.ids,
      text: prompts[n.source]?.tokens.slice(n.start, n.end).map(displayToken) ?? [],
    })),
    inserts: radix.inserts,
  });

  return (
    <section data-role="radix-panel" aria-label={t('econ.radixTitle')} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-2)' }}>
      <h3 style={{ margin: 'var(--sp-2) 0 0' }}>{t('econ.radixTitle')}</h3>
      <p style={{ margin: 0, maxWidth: '80em' }}>{t('econ.radixIntro', { mode })}</p>
      <ExportFrame name={`radix-tree-${mode}`} title={withContext(t('export.caption.radixTree', { mode }))} json={treeJson} bodyStyle={{ display: 'grid', gap: 10 }}>
        {/* Wider than the panel only when every edge needs its minimum length: then it scrolls in its own box. */}
        <div data-role="radix-scroll" style={{ overflowX: 'auto', maxWidth: '100%' }}>
          <svg data-role="radix-tree" data-nodes={radix.nodes.length} width={W} height={H} role="img" aria-label={t('econ.radixAria', { nodes: radix.nodes.length - 1, mode })} style={{ font: '11px system-ui, sans-serif' }}>
            <text x={m.l} y={14} fontSize={12} fill="#555">
              {t('econ.radixRoot')}
            </text>
            {layout.nodes.map((n) => {
              if (n.parent === null) return null;
              const node = byId.get(n.id)!;
              const x0 = m.l + n.x0;
              const x1 = m.l + n.x;
              const y0 = yOf(n.parentRow);
              const y1 = yOf(n.row);
              const label = t('econ.edgeTokens', { n: fmtInt(n.tokens) });
              const text = edgeText(prompts[node.source], node.start, node.end, x1 - x0 - 18 - label.length * 7);
              return (
                <g key={n.id} data-node={n.id} data-tokens={n.tokens} data-calls={node.calls.join(' ')}>
                  <title>{t('econ.edgeTip', { tokens: n.tokens, start: node.start, end: node.end, calls: node.calls.map((c) => c + 1).join(', ') })}</title>
                  <path d={`M ${x0} ${y0} L ${x0} ${y1} L ${x1} ${y1}`} fill="none" stroke="#555" strokeWidth={1 + Math.min(4, node.calls.length * 0.6)} />
                  <text x={x0 + 6} y={y1 - 7} fontWeight={700} fill="#222">
                    {label}
                    <tspan fontWeight={400} fontFamily={MONO} fill="#666" dx={6}>
                      {text}
                    </tspan>
                  </text>
                  {node.calls.map((c, k) => (
                    <g key={c}>
                      <rect x={x0 + 6 + k * (CHIP + 2)} y={y1 + 5} width={CHIP} height={CHIP} rx={2} fill={callColor(c)} />
                      <text x={x0 + 6 + k * (CHIP + 2) + CHIP / 2} y={y1 + 15} textAnchor="middle" fontSize={9} fill={callInk(c)}>
                        {c + 1}
                      </text>
                    </g>
                  ))}
                  <circle cx={x1} cy={y1} r={4} fill={n.leaf ? callColor(node.calls.at(-1) ?? 0) : '#fff'} stroke="#333" />
                  {n.leaf && (
                    <text x={x1 + 8} y={y1 + 4} fontSize={12} fontWeight={600}>
                      {t('econ.leafCall', { calls: node.calls.map((c) => c + 1).join(', ') })}
                    </text>
                  )}
                </g>
              );
            })}
            <circle cx={m.l} cy={yOf(0)} r={5} fill="#333" />
          </svg>
        </div>
        <LegendRow role="radix-legend">
          {Array.from({ length: calls }, (_, c) => (
            <Swatch key={c} color={callColor(c)} label={t('econ.callN', { call: c + 1 })} />
          ))}
          <span className="muted">{t('econ.radixLegendNote')}</span>
        </LegendRow>
      </ExportFrame>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--sp-5)', alignItems: 'flex-start' }}>
        <HitTable radix={radix} sent={ids.map((x) => x.length)} />
        <BlockRows
          width={width}
          blocks={blocks}
          sent={ids.map((x) => x.length)}
          blockSize={accounting.blockSize}
          cached={accounting.calls.map((c) => c.cached)}
          mode={mode}
          caption={withContext(t('export.caption.blocks', { mode }))}
        />
      </div>
    </section>
  );
}

function HitTable({ radix, sent }: { radix: ReturnType<typeof buildRadix>; sent: number[] }) {
  const t = useT();
  const th = { textAlign: 'right' as const, padding: '3px 8px', borderBottom: '1px solid var(--c-border-strong)', fontWeight: 600, whiteSpace: 'nowrap' as const };
  const td = { textAlign: 'right' as const, padding: '3px 8px', borderBottom: '1px solid var(--c-border)', fontVariantNumeric: 'tabular-nums' as const };
  return (
    <table data-role="radix-hits" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)' }}>
      <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 4 }}>{t('econ.hitsTitle')}</caption>
      <thead>
        <tr>
          <th style={th}>{t('econ.colCall')}</th>
          <th style={th}>{t('econ.colSent')}</th>
          <th style={th}>{t('econ.colHit')}</th>
          <th style={th}>{t('econ.colNew')}</th>
          <th style={th}>{t('econ.colNewNodes')}</th>
          <th style={th}>{t('econ.colFrom')}</th>
        </tr>
      </thead>
      <tbody>
        {radix.inserts.map((ins, i) => (
          <tr key={i} data-call={i} data-hit={ins.hit}>
            <td style={td}>
              <span style={{ display: 'inline-block', width: 10, height: 10, background: callColor(i), marginRight: 6, borderRadius: 2 }} />
              {i + 1}
            </td>
            <td style={td}>{fmtInt(sent[i]!)}</td>
            <td style={{ ...td, color: ECON_COLORS.cached, fontWeight: 600 }}>{fmtInt(ins.hit)}</td>
            <td style={{ ...td, color: '#b8334a', fontWeight: 600 }}>{fmtInt(sent[i]! - ins.hit)}</td>
            <td style={td}>{ins.newNodes.length}</td>
            <td style={td}>{ins.bestEarlier === null ? '—' : ins.bestEarlier + 1}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `width`: the container's width; the bars take what the labels leave, 240…560 px. */
function BlockRows({ blocks, sent, blockSize, cached, mode, caption, width }: { blocks: ReturnType<typeof blockHits>; sent: number[]; blockSize: number; cached: number[]; mode: PatternMode; caption: string; width: number }) {
  const t = useT();
  const labelW = 56;
  const barW = Math.max(240, Math.min(560, Math.floor(width) - labelW - 230 - 8));
  const rowH = 22;
  const W = labelW + barW + 230;
  const H = blocks.length * rowH + 6;
  const px = barW / Math.max(1, ...sent);
  const sep = blockSize * px >= 4;
  const agree = blocks.every((b, i) => b.hitTokens === cached[i]);
  // Per call: full blocks, blocks found, tokens they hold, the chained hashes; and the accounting's cached tokens.
  const exportJson = () => ({ kind: 'block-hits', mode, blockSize, sent, cachedByAccounting: cached, agree, calls: blocks });
  return (
    <ExportFrame name={`block-hits-${mode}`} title={caption} json={exportJson}>
      <div style={{ display: 'grid', gap: 6, alignContent: 'start' }}>
        <div style={{ fontWeight: 600 }}>{t('econ.blocksTitle', { block: blockSize })}</div>
        <svg data-role="block-rows" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('econ.blocksTitle', { block: blockSize })} style={{ font: '11px system-ui, sans-serif', maxWidth: '100%', height: 'auto' }}>
          {blocks.map((b, i) => {
            const y = i * rowH + 3;
            const h = rowH - 8;
            const full = b.blocks * blockSize;
            const cells = [];
            if (sep) {
              for (let k = 0; k < b.blocks; k++)
                cells.push(
                  <rect key={k} x={labelW + k * blockSize * px} y={y} width={blockSize * px} height={h} fill={k < b.hitBlocks ? ECON_COLORS.cached : ECON_COLORS.recomputed} stroke="#fff" strokeWidth={blockSize * px >= 8 ? 1 : 0.5} />,
                );
            } else {
              cells.push(<rect key="hit" x={labelW} y={y} width={b.hitTokens * px} height={h} fill={ECON_COLORS.cached} />);
              cells.push(<rect key="miss" x={labelW + b.hitTokens * px} y={y} width={(full - b.hitTokens) * px} height={h} fill={ECON_COLORS.recomputed} />);
            }
            return (
              <g key={i} data-call={i} data-hit-blocks={b.hitBlocks} data-blocks={b.blocks}>
                <text x={0} y={y + h - 2}>
                  {t('econ.callN', { call: i + 1 })}
                </text>
                {cells}
                {sent[i]! > full && <rect x={labelW + full * px} y={y} width={(sent[i]! - full) * px} height={h} fill="url(#partial-hatch)" stroke="#bbb" strokeWidth={0.5} />}
                <text x={labelW + barW + 10} y={y + h - 2} fill="#333">
                  {t('econ.blocksHit', { hit: b.hitBlocks, blocks: b.blocks, tokens: fmtInt(b.hitTokens) })}
                </text>
              </g>
            );
          })}
          <defs>
            <pattern id="partial-hatch" width={5} height={5} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width={5} height={5} fill="#fff" />
              <rect width={2.5} height={5} fill={ECON_COLORS.partial} />
            </pattern>
          </defs>
        </svg>
        <LegendRow role="block-legend">
          <Swatch color={ECON_COLORS.cached} label={t('econ.blockHit')} />
          <Swatch color={ECON_COLORS.recomputed} label={t('econ.blockMiss')} />
          <Swatch color="#aaa" hatched label={t('econ.blockPartial')} />
        </LegendRow>
        <div data-role="block-agree" data-agree={agree} style={{ color: agree ? '#2a6a2a' : 'var(--c-error)' }}>
          {agree ? t('econ.blocksAgree') : t('econ.blocksDisagree')}
        </div>
      </div>
    </ExportFrame>
  );
}
