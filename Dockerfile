# One image for both roles: `node --max-semi-space-size=16 dist/apps/api/src/main.js` (HTTP) or
# `node --max-semi-space-size=16 dist/apps/worker/src/main.js`.
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
EXPOSE 3000
# Young generation at 16 MB a semi-space, as Node 20 had it: Node 24 sizes it up to 64 MB, which a bulk import fills.
CMD ["node", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
