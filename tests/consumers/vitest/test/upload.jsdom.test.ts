// @vitest-environment jsdom
// Component tests commonly run in jsdom, whose File, Blob and FormData Node's fetch does not know.
import { uploadTests } from "./dom-upload.js";

uploadTests("jsdom");
