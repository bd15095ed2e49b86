/**
 * The inference worker. Its JavaScript is kept here as a string and started with
 * `new Worker(FACE_WORKER_SOURCE, { eval: true })`, for robustness:
 *  - it runs unchanged from compiled dist/ (tsc does not copy .js files, and a .ts worker file
 *    cannot be started by Node 20 directly) and under jest (whose module registry and swc
 *    transform do not reach worker threads anyway, and whose coverage instrumentation would break
 *    a worker built with Function.prototype.toString);
 *  - it requires nothing by bare name: the main thread resolves absolute paths of face-api's Node
 *    WASM build, the model directory and the .wasm directory (model.ts) and passes them as
 *    workerData, so the worker does not depend on the process working directory.
 *
 * Protocol (structured clone):
 *   worker -> main  { type: 'ready', loadMs } | { type: 'init-error', message }
 *   main -> worker  { id, rgb: Uint8Array (width*height*3), width, height }     one job at a time
 *   worker -> main  { type: 'result', id, faceCount, descriptor?: Float32Array } | { type: 'error', id, message }
 * The worker never logs; descriptors leave it only in the result message.
 */

export interface FaceWorkerData {
  faceApiEntry: string;
  modelDir: string;
  wasmDir: string;
  minConfidence: number;
}

export interface FaceJobMessage {
  id: number;
  rgb: Uint8Array;
  width: number;
  height: number;
}

export type FaceWorkerMessage =
  | { type: 'ready'; loadMs: number }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; faceCount: number; descriptor?: Float32Array }
  | { type: 'error'; id: number; message: string };

export const FACE_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');

const { faceApiEntry, modelDir, wasmDir, minConfidence } = workerData;
let faceapi;
let tf;
let detectorOptions;

const errorText = (e) => String((e && e.message) || e).slice(0, 500);

async function init() {
  const started = performance.now();
  faceapi = require(faceApiEntry);
  tf = faceapi.tf; // the tfjs + tfjs-backend-wasm instance face-api itself uses
  tf.setWasmPaths(wasmDir);
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs WASM backend did not initialise');
  await tf.ready();
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
  detectorOptions = new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 100 });
  // One pass through each network so the first real request does not pay for WASM kernel set-up.
  const blank = tf.zeros([160, 160, 3], 'int32');
  try {
    await faceapi.detectAllFaces(blank, detectorOptions);
    await faceapi.nets.faceLandmark68Net.detectLandmarks(blank);
    await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(blank);
  } finally {
    blank.dispose();
  }
  return performance.now() - started;
}

async function run(job) {
  let input;
  try {
    input = tf.tensor3d(job.rgb, [job.height, job.width, 3], 'int32');
    const detections = await faceapi.detectAllFaces(input, detectorOptions);
    if (detections.length === 0) return { type: 'result', id: job.id, faceCount: 0 };
    let largest = detections[0];
    for (const d of detections) {
      if (d.box.area > largest.box.area || (d.box.area === largest.box.area && d.score > largest.score)) largest = d;
    }
    // face-api's own single-face path (landmarks -> dlib alignment -> descriptor) for the chosen
    // box only: a crowd photo costs one descriptor, not one per face.
    const described = await new faceapi.DetectSingleFaceLandmarksTask(Promise.resolve({ detection: largest }), input, false)
      .withFaceDescriptor();
    if (!described || !described.descriptor) return { type: 'result', id: job.id, faceCount: detections.length };
    return { type: 'result', id: job.id, faceCount: detections.length, descriptor: Float32Array.from(described.descriptor) };
  } catch (e) {
    return { type: 'error', id: job.id, message: errorText(e) };
  } finally {
    if (input) input.dispose();
  }
}

init().then(
  (loadMs) => {
    parentPort.on('message', (job) => {
      run(job).then((reply) => {
        parentPort.postMessage(reply, reply.descriptor ? [reply.descriptor.buffer] : []);
      });
    });
    parentPort.postMessage({ type: 'ready', loadMs });
  },
  (e) => {
    parentPort.postMessage({ type: 'init-error', message: errorText(e) });
  },
);
`;
