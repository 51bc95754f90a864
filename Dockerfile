# Production image: build in one stage, run as a non-root user in the next.
# Node 24, the active LTS line (the app also runs on Node 22.12+, see package.json engines).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system caretaker && useradd --system --gid caretaker --home /app caretaker \
  && mkdir -p /data && chown caretaker:caretaker /data
COPY --from=build --chown=caretaker:caretaker /app/node_modules ./node_modules
COPY --from=build --chown=caretaker:caretaker /app/build ./build
COPY --from=build --chown=caretaker:caretaker /app/package.json ./
COPY --from=build --chown=caretaker:caretaker /app/app/db/migrations ./app/db/migrations
USER caretaker
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "build/server.js"]
