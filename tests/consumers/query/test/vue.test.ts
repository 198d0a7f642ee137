// The same option factories with TanStack Query for Vue (@tanstack/vue-query) in jsdom: a query
// and a mutation whose success invalidates it.
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { createApp, defineComponent, h, nextTick } from "vue";
import { QueryClient, VueQueryPlugin, useMutation, useQuery } from "@tanstack/vue-query";
import { Client } from "estatekit";
import { listWebhooksQueryOptions, registerWebhookMutationOptions } from "estatekit/query";
import { createTestService, type TestService } from "estatekit/testing";

let service: TestService;
let client: Client;

beforeEach(async () => {
  service = await createTestService();
  client = new Client({ baseUrl: service.baseUrl, token: service.token, fetch: service.fetch });
});
afterEach(() => {
  client.free();
  service.close();
});

test("vue-query: lists webhooks, registers one, and the list is refetched", async () => {
  await service.seed({ webhooks: [{ type: "UNIT_CREATED", url: "https://portal.example.test/hooks/a" }] });
  let register: (url: string) => void = () => {};
  const Panel = defineComponent({
    setup() {
      const webhooks = useQuery(listWebhooksQueryOptions(client));
      const registering = useMutation(registerWebhookMutationOptions(client));
      register = (url) => registering.mutate({ type: "UNIT_DELETED", url });
      return () => h("p", (webhooks.data.value ?? []).map((w) => w.url).sort().join(","));
    },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { gcTime: Infinity } } });
  const container = document.createElement("div");
  document.body.append(container);
  const app = createApp(Panel);
  app.use(VueQueryPlugin, { queryClient });
  app.mount(container);
  try {
    await vi.waitFor(() => expect(container.textContent).toBe("https://portal.example.test/hooks/a"), { timeout: 10_000 });
    register("https://portal.example.test/hooks/b");
    await nextTick();
    await vi.waitFor(
      () => expect(container.textContent).toBe("https://portal.example.test/hooks/a,https://portal.example.test/hooks/b"),
      { timeout: 10_000 },
    );
    const lists = (await service.requests()).filter((r) => r.method === "GET" && r.path === "/api/external-integrations/webhooks");
    expect(lists).toHaveLength(2); // the first list, and the one the mutation's invalidation caused
  } finally {
    app.unmount();
    container.remove();
    queryClient.clear();
  }
});
