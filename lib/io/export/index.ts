// Export of views (PNG, SVG, JSON): the pure parts. components/common/ExportFrame does the DOM side.
export * from './filename';
export * from './json';
export * from './matrix';
export * from './svg';
export * from './heatmapView';
