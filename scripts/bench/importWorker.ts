/**
 * The app's import worker, as an entry of the bench CLI bundle (out/cli/bench/importWorker.cjs),
 * the same way electron-vite emits out/main/importWorker.js for the app.
 */
import '../../src/main/workers/import/importWorker'
