// The same scenario in a module Worker. Import maps do not reach workers (a page's map applies
// to the page only), so the worker names the installed package's entries by their paths.
import { Client, isApiError } from "./node_modules/estatekit/estatekit.js";
import { createTestService } from "./node_modules/estatekit/testing.js";
import { failure, scenario } from "./scenario.js";

const inWorker = typeof WorkerGlobalScope !== "undefined" && self instanceof WorkerGlobalScope;
scenario({ Client, createTestService, isApiError }).then(
  (result) => postMessage({ ...result, workerScope: inWorker }),
  (e) => postMessage({ ...failure(e), workerScope: inWorker }),
);
