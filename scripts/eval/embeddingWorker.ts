/**
 * The app's embedding worker, as an entry of the eval CLI bundle (out/cli/eval/embeddingWorker.cjs),
 * the same way electron-vite emits out/main/embeddingWorker.js for the app.
 */
import '../../src/main/workers/embedding/embeddingWorker'
