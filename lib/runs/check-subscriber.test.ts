import { describe, expect, it } from "vitest";
import { subscriberFaults } from "@/lib/runs/check-subscriber";

describe("subscriberFaults", () => {
  it("accepts public https URIs and names each refused one by its field", () => {
    expect(subscriberFaults({ successUri: "https://example.com/done", failedUri: "https://93.184.216.34/failed" }, [])).toEqual([]);
    const faults = subscriberFaults({ successUri: "http://example.com/done", inProgressUri: "https://10.0.0.7/p", failedUri: "https://[::1]/f" }, []);
    expect(faults.map((f) => [f.field, f.code])).toEqual([
      ["/subscriber/successUri", "url_not_allowed"],
      ["/subscriber/inProgressUri", "url_not_allowed"],
      ["/subscriber/failedUri", "url_not_allowed"],
    ]);
    expect(faults[0]!.message).toMatch(/Only https/);
    expect(faults[1]!.message).toMatch(/10\.0\.0\.7 is a private/);
  });

  it("lets the environment's allow-list name a private or plain-http host", () => {
    expect(subscriberFaults({ successUri: "http://127.0.0.1:8080/done", failedUri: "https://10.0.0.7/f" }, ["127.0.0.1", "10.0.0.7"])).toEqual([]);
  });
});
