// Preloaded into the child that stands in for an Electron utility process: Electron gives
// such a process `process.parentPort`; here it is built on the fork's IPC channel.
const { EventEmitter } = require('node:events')

const port = new EventEmitter()
port.postMessage = (message) => process.send?.(message)
process.on('message', (data) => port.emit('message', { data }))
// The app went away: so does its utility process, as in Electron.
process.on('disconnect', () => process.exit(0))
process.parentPort = port
