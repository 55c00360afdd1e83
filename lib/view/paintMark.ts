// The performance mark `<Heatmap>` writes after each paint (components/attention/Heatmap.tsx). Benchmarks and
// browser tests wait for it, so it is named once here.

export const HEATMAP_PAINTED_MARK = 'kvscope:heatmap-painted';
