# One image for both roles: `node dist/apps/api/src/main.js` (HTTP) or `node dist/apps/worker/src/main.js`.
FROM node:24-bookworm-slim
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# The client package is an npm workspace: its manifest is part of the install.
COPY packages/client/package.json packages/client/
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production
# A young generation of at most 8 MB a semi-space: a bulk import's short-lived buffers are collected young instead of
# growing it (Node 20 lets it reach 16 MB, Node 24 64 MB: two concurrent 29 MB imports then peaked at 330-408 MB and
# 438-449 MB resident). Set in NODE_OPTIONS so that a deployment's own NODE_OPTIONS replaces it.
ENV NODE_OPTIONS=--max-semi-space-size=8
# Two malloc arenas instead of one per thread (the SQLite stores' threads): the same two imports peaked at 347-350 MB
# instead of 370-412 MB.
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
