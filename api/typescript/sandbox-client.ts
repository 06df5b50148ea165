// A client of the delivery and omni interfaces generated from api/ with
// openapi-typescript and openapi-fetch, run against `rxdelivery sandbox`:
// it creates an order (for the simulator's first built-in pharmacy), gets it, gets it again through the ids[] query and
// asks a pharmacy's delivery information with bracket-nested query
// parameters, then creates and gets an omni request. .ci/openapi.sh
// generates the types, compiles this file with tsc --strict and runs it
// with node against a sandbox on loopback; docs/api.md shows it.
import createClient from "openapi-fetch";
import type { paths as DeliveryPaths } from "./delivery.js";
import type { paths as OmniPaths } from "./omni.js";

declare const process: { env: Record<string, string | undefined>; exit(code: number): never };

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (rxdelivery sandbox prints it)`);
  return v;
}

// Basic credentials in the unpadded URL-safe base64 alphabet, the one the
// omni, delivery and pricing documents' examples use (tracking's is the
// standard alphabet).
function basicURLSafe(key: string, secret: string): string {
  const b64 = btoa(`${key}:${secret}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `Basic ${b64}`;
}

// serializeQuery writes a query as the platform reads it: an array is the
// key repeated once per element (ids[]=a&ids[]=b) and an object nests in
// brackets to any depth (delivery[address][zipcode]=02108). openapi-fetch's
// own serializer nests one level only, so the client is given this one.
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const v of value) add(name, v);
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${name}[${k}]`, v);
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [k, v] of Object.entries(query)) add(k, v);
  return parts.join("&");
}

const headers = { Authorization: basicURLSafe(env("RXDELIVERY_API_KEY"), env("RXDELIVERY_API_SECRET")) };
const delivery = createClient<DeliveryPaths>({ baseUrl: env("RXDELIVERY_DELIVERY_URL"), headers, querySerializer: serializeQuery });
const omni = createClient<OmniPaths>({ baseUrl: env("RXDELIVERY_OMNI_URL"), headers, querySerializer: serializeQuery });

function check(cond: boolean, what: string): void {
  if (!cond) {
    console.error(`sandbox-client: ${what}`);
    process.exit(1);
  }
}

const address = { street: "1 Main St", city: "Boston", state: "MA", zipcode: "02108" };

async function main(): Promise<void> {
  const created = await delivery.POST("/api/v1/orders", {
    body: {
      delivery_fee: 5.0,
      rx_amount_due: 10.0,
      external_reference_number: "REF-1001",
      pharmacy: { npi: "1555000011", ncpdp: "5550001" },
      recipient: { description: "Jane Doe", mobile_phone_number: "5555550100", address },
      patient: { first_name: "Jane", last_name: "Doe", gender: "female", date_of_birth: "1970-01-01" },
      prescriptions: [{
        number: "RX-1001", ndc: "00002143380", refrigeration: "none", days_supply: 30,
        fill_quantity: 30, fill_number: 0, patient_pay: 10.0,
        prescriber: { first_name: "John", last_name: "Smith", npi: "1987654320", address },
        payers: [{ bin: "610014", pcn: "PCN1", rx_group: "GRP1", coverage_type: "primary", government_plan_indicator: false }],
      }],
    },
  });
  check(created.response.status === 200 && created.data !== undefined, `create an order: ${created.response.status} ${JSON.stringify(created.error)}`);
  // id and status are required members: typed string, not string | undefined.
  const id: string = created.data!.order.id;
  const status: string = created.data!.order.status;
  console.log(`created order ${id} (${status})`);

  const got = await delivery.GET("/api/v1/orders/{id}", { params: { path: { id } } });
  check(got.data?.order.id === id, `get the order: ${got.response.status}`);

  const many = await delivery.GET("/api/v1/orders", { params: { query: { "ids[]": [id, id] } } });
  check(many.response.status === 200, `get orders by ids[]: ${many.response.status}`);
  check(new URL(many.response.url).search === `?ids%5B%5D=${id}&ids%5B%5D=${id}`, `ids[] sent as ${many.response.url}`);

  const info = await delivery.GET("/api/v1/pharmacies/{id}", {
    params: { path: { id: "5550001" }, query: { delivery: { address } } },
  });
  check(info.response.status === 200, `delivery information: ${info.response.status} ${JSON.stringify(info.error)}`);
  check(new URL(info.response.url).searchParams.get("delivery[address][zipcode]") === "02108", `delivery[address][zipcode] sent as ${info.response.url}`);
  console.log(`delivery information of 5550001 for ${address.zipcode}`);

  const request = await omni.POST("/api/v1/requests", {
    body: {
      identifier: env("RXDELIVERY_PROGRAM_ID"),
      external_reference_number: "rx-000123",
      ndc: "00000000000",
      pharmacy: { ncpdp: "5550001" },
      dropoff: { name: "Sam Example", phone_number: "2125550100", address: { place_id: "place-0001" } },
      patient: { first_name: "Sam", last_name: "Example", date_of_birth: "1970-01-01" },
    },
  });
  check(request.data !== undefined, `create a request: ${request.response.status} ${JSON.stringify(request.error)}`);
  const rid: string = request.data!.request.id;
  const back = await omni.GET("/api/v1/requests/{id}", { params: { path: { id: rid } } });
  check(back.data?.request.id === rid, `get the request: ${back.response.status}`);
  console.log(`created request ${rid}`);
}

main().catch((err: unknown) => {
  console.error(`sandbox-client: ${String(err)}`);
  process.exit(1);
});
