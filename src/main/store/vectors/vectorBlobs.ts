/** A vector as the bytes SQLite stores (a view, not a copy). */
export const blob = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

/** A stored float32 blob as a vector (copied: a blob's bytes need not be 4-byte aligned). */
export const floats = (embedding: Buffer): Float32Array =>
  new Float32Array(
    embedding.buffer.slice(embedding.byteOffset, embedding.byteOffset + embedding.byteLength)
  )
