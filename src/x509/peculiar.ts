/**
 * @peculiar/x509, loaded after the Reflect metadata polyfill its dependency injection (tsyringe)
 * requires at import time. The service's entry points load the polyfill first, but a process that
 * imports src/x509 alone (a wallet, a script, a worker) would crash on the bare import, so every
 * module here imports the library through this file.
 */
import 'reflect-metadata';

export * from '@peculiar/x509';
