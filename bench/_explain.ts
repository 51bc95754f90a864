import { sql, type SQL } from "drizzle-orm";
import { personActor } from "~/core/actor";
import { openDatabase } from "~/db/client.server";
import { Role } from "~/db/enums";
import { rowsOf } from "~/lib/list-page.server";
import { getDashboardCosts } from "~/modules/dashboard/costs.server";

async function main() {
  const database = await openDatabase({ url: process.env.DATABASE_URL!, poolMax: 2 });
  const db = database.db;
  const e = Number(process.env.BENCH_ENTITY);
  const role = process.env.ROLE === "admin" ? Role.ADMINISTRATOR : Role.FACILITY_MANAGER;
  const [user] = rowsOf<{ id: number; role: number }>(await db.execute(sql`select id, role from users where entity_id = ${e} and role = ${role} limit 1`));
  const wrapped = new Proxy(db, {
    get(target, prop) {
      if (prop === "execute") {
        return async (q: SQL) => {
          const text = (q as unknown as { queryChunks: unknown[] }).queryChunks.map((c) => (typeof c === "object" && c && "value" in c ? String((c as { value: unknown }).value) : "")).join("");
          if (text.includes("grouping sets")) {
            const res = rowsOf<Record<string, string>>(await target.execute(sql`explain (analyze, buffers) ${q}`));
            console.log(res.map((r) => Object.values(r)[0]).join("\n"));
          }
          return target.execute(q);
        };
      }
      return Reflect.get(target, prop);
    },
  });
  await getDashboardCosts({ db: wrapped, entityId: e, actor: personActor(user), locale: "en", timeZone: "Europe/Brussels" }, { facilityId: null, buildingId: null, incidentTypeId: null, from: null, to: null });
  await database.close();
}
main();
