/**
 * The app's search worker, as an entry of the bench CLI bundle
 * (out/cli/bench/searchWorker.cjs), the same way electron-vite emits
 * out/main/searchWorker.js for the app.
 */
import '../../src/main/workers/search/searchWorker'
