// Calls every read-only function of the reference's official SDK (@skip-go/client) against the service at
// $ASSETROUTE_API_URL and prints one JSON report on stdout: per call, whether it succeeded, what it returned
// (in brief) and which fields the SDK's types require that the answer lacks. tests/contract/test_sdk_contract.py
// runs it and judges the report; this script only observes.
import * as sdk from "@skip-go/client";

const apiUrl = process.env.ASSETROUTE_API_URL;
sdk.setApiOptions({ apiUrl });

// Fields the SDK's TypeScript types require (dist/esm .d.ts of @skip-go/client 1.6.1), as the SDK names them.
const ASSET = ["denom", "chainId", "originDenom", "originChainId", "trace", "isCw20", "isEvm", "isSvm"];
const CHAIN = ["chainName", "chainId", "pfmEnabled", "cosmosModuleSupport", "supportsMemo", "bech32Prefix",
  "feeAssets", "chainType", "ibcCapabilities", "isTestnet", "prettyName"];
const missing = (obj, fields) => fields.filter((f) => obj?.[f] === undefined || obj?.[f] === null);

const report = {};
async function call(name, fn) {
  try {
    report[name] = { ok: true, ...(await fn()) };
  } catch (e) {
    report[name] = { ok: false, error: String(e?.message ?? e), code: e?.code ?? null };
  }
}

await call("chains", async () => {
  const chains = await sdk.chains({ includeEvm: true, includeSvm: true });
  return { count: chains.length, missing: [...new Set(chains.flatMap((c) => missing(c, CHAIN)))],
           types: [...new Set(chains.map((c) => c.chainType))], testnets: chains.filter((c) => c.isTestnet).length };
});
await call("chains_two", async () => {
  const chains = await sdk.chains({ chainIds: ["osmosis-1", "cosmoshub-4"] });
  return { ids: chains.map((c) => c.chainId).sort() };
});
await call("chains_testnets", async () => {
  const chains = await sdk.chains({ onlyTestnets: true });
  return { count: chains.length, all_testnets: chains.every((c) => c.isTestnet === true),
           missing: [...new Set(chains.flatMap((c) => missing(c, CHAIN)))] };
});
for (const chainId of ["osmosis-1", "cosmoshub-4"]) {
  await call(`fee_${chainId}`, async () => {
    const fee = await sdk.getFeeInfoForChain({ chainId });
    return { denom: fee?.denom ?? null, gas: fee?.gasPrice ?? null };
  });
  await call(`gas_${chainId}`, async () => {
    const price = await sdk.getRecommendedGasPrice({ chainId });
    return { denom: price?.denom ?? null, defined: price !== undefined };
  });
}
await call("assets", async () => {
  const map = await sdk.assets({ chainIds: ["osmosis-1", "cosmoshub-4"] });
  const all = Object.values(map ?? {}).flat();
  return { chains: Object.keys(map ?? {}).sort(), count: all.length,
           missing: [...new Set(all.flatMap((a) => missing(a, ASSET)))] };
});
await call("assets_all", async () => {
  const map = await sdk.assets({ includeEvmAssets: true, includeCw20Assets: true });
  return { chains: Object.keys(map ?? {}).length };
});
await call("bridges", async () => ({ ids: (await sdk.bridges()).map((b) => b.id) }));
await call("venues", async () => ({ count: (await sdk.venues()).length }));
await call("ibc_origin_assets", async () => {
  const out = await sdk.ibcOriginAssets({ assets: [
    { denom: "ibc/14F9BC3E44B8A9C1BE1FB08980FAB87034C9905EF17CF2F5008FC085218811CC", chainId: "cosmoshub-4" },
    { denom: "no-such-denom", chainId: "cosmoshub-4" }] });
  return { entries: out.map((e) => [e.assetFound ?? null, e.asset?.denom ?? null, e.asset?.chainId ?? null]),
           missing: [...new Set(out.filter((e) => e.asset).flatMap((e) => missing(e.asset, ASSET)))] };
});
await call("recommend_assets", async () => {
  const out = await sdk.recommendAssets({ requests: [
    { sourceAssetDenom: "uusdc", sourceAssetChainId: "axelar-dojo-1", destChainId: "osmosis-1" },
    { sourceAssetDenom: "uusdc", sourceAssetChainId: "axelar-dojo-1", destChainId: "no-such-chain-1" }] });
  return { entries: out.map((e) => [e.recommendations?.[0]?.asset?.denom ?? null, e.recommendations?.[0]?.reason ?? null,
                                    e.error?.message ?? null]) };
});
await call("between", async () => {
  const out = await sdk.assetsBetweenChains({ sourceChainId: "noble-1", destChainId: "osmosis-1" });
  const pairs = out?.assetsBetweenChains ?? out ?? [];
  return { count: pairs.length,
           missing: [...new Set(pairs.flatMap((p) => [...missing(p.assetOnSource, ASSET), ...missing(p.assetOnDest, ASSET)]))] };
});
await call("from_source", async () => {
  const out = await sdk.assetsFromSource({ sourceAssetDenom: "uusdc", sourceAssetChainId: "noble-1", allowMultiTx: true });
  return { chains: Object.keys(out ?? {}).length };
});
await call("unknown_chain", async () => {
  await sdk.assetsBetweenChains({ sourceChainId: "cosmoshub-4", destChainId: "no-such-chain-1" });
  return { unexpected: "no error" };
});
await call("unknown_denom", async () => {
  await sdk.assetsFromSource({ sourceAssetDenom: "no-such-denom", sourceAssetChainId: "cosmoshub-4" });
  return { unexpected: "no error" };
});
process.stdout.write(JSON.stringify(report));
