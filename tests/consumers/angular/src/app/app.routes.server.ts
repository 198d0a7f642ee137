import { RenderMode, ServerRoute } from '@angular/ssr';

// Rendered per request (not prerendered at build time): the page calls the service, whose
// address the request gives.
export const serverRoutes: ServerRoute[] = [
  {
    path: '**',
    renderMode: RenderMode.Server
  }
];
