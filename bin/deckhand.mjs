#!/usr/bin/env node
// Entry point: runs the TypeScript CLI through tsx, so `npm start` works right after `npm ci`.
import './check-node.mjs';
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
