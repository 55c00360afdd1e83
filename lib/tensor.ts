// The one tensor type every layer shares: engine outputs, analysis inputs, view data, worker messages.
// Plain data (a Float32Array and its shape, row-major); no engine, no DOM.

/** A tensor crossing module or worker boundaries: data plus explicit shape (row-major, `dims` outermost first). */
export interface Tensor {
  data: Float32Array;
  dims: number[];
}
