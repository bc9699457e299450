# Build stage: the README's install step (npm ci also builds dist/ via "prepare").
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY packages ./packages
COPY scripts ./scripts
COPY src ./src
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# Runtime stage: compiled code and production dependencies only, running as a non-root user.
FROM node:20-bookworm-slim
# No npm update notice: `npx sector` output stays the command's own, and needs no network.
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/data/sector.db
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/packages ./packages
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
# The schedule page's stylesheet, script and icon: read at start, served under /assets/.
COPY public ./public
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# What `npm start` runs, without npm in between, so SIGTERM reaches the server directly.
CMD ["node", "dist/server.js"]
