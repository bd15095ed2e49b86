# Credgate service image. Build: docker build -t credgate .   Run with PostgreSQL: see compose.yaml.
# Without DATABASE_URL the service uses embedded PGlite in CREDGATE_DATA_DIR (/data, a volume).

FROM node:20-slim AS build
WORKDIR /app
# Dependencies first, so source edits reuse this layer. postinstall (scripts/build.js) generates
# the Prisma client offline, which needs the schema and config; with no src/ yet it compiles nothing.
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts ./scripts
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
# dist/ needs no dev dependency at run time (the service applies migrations itself, without the
# Prisma CLI), so they are pruned after the build.
RUN npm run build --silent && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    CREDGATE_DATA_DIR=/data
WORKDIR /app
# Code is owned by root and read-only for the service; only /data is writable by it.
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
