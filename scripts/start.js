#!/usr/bin/env node
// `npm start`: build what changed (scripts/build.js, milliseconds when nothing did), then run the
// service in this same process, so that npm's signals (Ctrl-C, SIGTERM) reach the server itself
// and it drains and closes instead of being orphaned behind a shell.
'use strict';
require('./build.js');
require('../dist/main.js');
