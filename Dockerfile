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
# A young generation of 16 MB a semi-space, as Node 20 sizes it: Node 24 grows it to 64 MB, which a bulk import fills
# (two concurrent 29 MB imports then peak near 440 MB resident instead of about 330 MB). Set in NODE_OPTIONS so that a
# deployment's own NODE_OPTIONS replaces it.
ENV NODE_OPTIONS=--max-semi-space-size=16
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
