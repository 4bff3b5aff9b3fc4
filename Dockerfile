# Yidu in a container: the API and the workers from one image (choose with --role), the web app built in.
# Not built in this repository's CI (no container engine there); apps/server/test/deploy-shape.test.ts
# checks what it can of it and of deploy/compose.yaml. See docs/DEPLOYMENT.md.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
# npm ci applies these patches (postinstall); pdf.js's holds the limits on hostile PDFs.
COPY patches/ patches/
RUN npm ci --no-audit --no-fund
COPY . .
# The web app the API serves (WEB_DIST_DIR defaults to apps/web/dist).
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
CMD ["node", "apps/server/src/main.ts", "--role=all"]
