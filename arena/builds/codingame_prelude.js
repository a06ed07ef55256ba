// CodinGame's JavaScript and TypeScript bots read their input with a global readline() and may
// write with print() and printErr(); Node has none of them. The arena runs such a bot with this file
// loaded first (node --require), which defines them. readline() blocks until a whole line has come
// and returns it without its line ending, or null once the input has ended.
"use strict";

const fs = require("fs");
const { StringDecoder } = require("string_decoder");

const decoder = new StringDecoder("utf8");
const chunk = Buffer.alloc(1 << 16);
let pending = "";
let ended = false;

function readline() {
  for (;;) {
    const newline = pending.indexOf("\n");
    if (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      return line.endsWith("\r") ? line.slice(0, -1) : line;
    }
    if (ended) {
      const rest = pending;
      pending = "";
      return rest === "" ? null : rest;
    }
    let count;
    try {
      count = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === "EAGAIN") continue; // a non-blocking input: try again
      if (error.code !== "EOF") throw error;
      count = 0;
    }
    if (count === 0) {
      ended = true;
      pending += decoder.end();
    } else {
      pending += decoder.write(chunk.subarray(0, count));
    }
  }
}

globalThis.readline = readline;
globalThis.print = (...values) => console.log(...values);
globalThis.printErr = (...values) => console.error(...values);
