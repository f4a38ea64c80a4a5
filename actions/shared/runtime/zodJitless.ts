/**
 * Evaluated before anything else of a bundle (scripts/build-actions.mjs injects it): zod's object
 * schemas, unless `jitless`, compile a parser of their own with `new Function` on their first
 * parse. That pays back over thousands of parses; an action parses each schema a few times, so it
 * was only compiling, 5-10 ms of each start before its first request. Read when a schema is built,
 * hence first.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
