/**
 * The app's message vector worker, as an entry of the bench CLI bundle
 * (out/cli/bench/messageVectorWorker.cjs), the same way electron-vite emits
 * out/main/messageVectorWorker.js for the app.
 */
import '../../src/main/workers/messageVector/messageVectorWorker'
