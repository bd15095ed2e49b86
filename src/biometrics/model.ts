import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the face stack lives on disk. Everything is resolved from the installed packages: the
 * model weights ship in @vladmandic/face-api/model and the .wasm binaries in
 * @tensorflow/tfjs-backend-wasm/dist, so nothing is downloaded at run time.
 */
export interface FaceModelPaths {
  /** Absolute path of face-api's Node WASM build (dist/face-api.node-wasm.js). */
  faceApiEntry: string;
  /** Directory of the weight manifests and .bin shards. */
  modelDir: string;
  /** Directory holding tfjs-backend-wasm*.wasm, with a trailing separator (setWasmPaths wants one). */
  wasmDir: string;
}

const faceApiPackageJson = require.resolve('@vladmandic/face-api/package.json');
const faceApiDir = path.dirname(faceApiPackageJson);

/** The face-api version the descriptors come from; part of the model id. */
export const FACE_API_VERSION: string = (JSON.parse(readFileSync(faceApiPackageJson, 'utf8')) as { version: string }).version;

/**
 * Names the pipeline that produced a template: detector + landmark net + recognition net of one
 * face-api release. A template carrying another id is refused instead of mis-compared; upgrading
 * face-api therefore deliberately invalidates stored templates (re-enrol).
 */
export const FACE_MODEL_ID = `face-api/ssd_mobilenetv1+landmark68+recognition@${FACE_API_VERSION}`;

export function resolveFaceModelPaths(): FaceModelPaths {
  // The wasm binaries must match the tfjs-backend-wasm JS that face-api itself loads, so resolve
  // them from face-api's own directory.
  const wasmFile = require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm', { paths: [faceApiDir] });
  return {
    faceApiEntry: path.join(faceApiDir, 'dist', 'face-api.node-wasm.js'),
    modelDir: path.join(faceApiDir, 'model'),
    wasmDir: path.dirname(wasmFile) + path.sep,
  };
}
