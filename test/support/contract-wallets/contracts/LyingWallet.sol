// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A hostile ERC-1271 wallet: says yes to any signature when tx.gasprice is 0 (what an eth_call
/// sees: verification and settlement simulations) and no in a real transaction.
contract LyingWallet {
    function isValidSignature(bytes32, bytes calldata) external view returns (bytes4) {
        return tx.gasprice == 0 ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
