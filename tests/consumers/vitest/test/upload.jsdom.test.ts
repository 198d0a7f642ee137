// @vitest-environment jsdom
// Component tests commonly run in jsdom, whose File, Blob and FormData Node's fetch does not know
// (and vitest's adapter for them sends `undefined` from jsdom 28 on).
import { uploadTests } from "./dom-upload.js";

uploadTests("jsdom");
