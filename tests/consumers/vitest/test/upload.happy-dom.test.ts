// @vitest-environment happy-dom
// happy-dom brings its own File, Blob, FormData and also its own fetch, Request and Response.
import { uploadTests } from "./dom-upload.js";

uploadTests("happy-dom");
