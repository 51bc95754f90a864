import { QueryBuilder } from "drizzle-orm/pg-core";

/**
 * Builds the correlated subqueries of a selection (`plansCount: sql\`${subquery.select(…).from(…).where(…)}\``).
 *
 * A select from a single table writes the columns of its selected expressions bare (`"id"`, not
 * `"maintenance_types"."id"`), and in a hand-written SQL subquery a bare outer column binds to the subquery's
 * own column of that name (`where p.maintenance_type_id = "id"` reads the plan's own id). A subquery built with
 * drizzle's query builder names every column of its conditions with its table, so an outer column stays outer;
 * a subquery on the outer query's own table reads it through `alias()`.
 */
export const subquery = new QueryBuilder({ casing: "snake_case" });
