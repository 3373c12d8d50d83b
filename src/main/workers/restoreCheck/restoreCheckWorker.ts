/**
 * Checks a restore candidate (store/restoreCheck.ts) off the main thread:
 * integrity_check reads every page, about 3.6 s for a 107 MB store here. Posts the check.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { checkRestoreCandidate } from '../../store/restoreCheck'

const { path, nativeBinding } = workerData as { path: string; nativeBinding?: string }
parentPort?.postMessage(checkRestoreCandidate(path, nativeBinding))
