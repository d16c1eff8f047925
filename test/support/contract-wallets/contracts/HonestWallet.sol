// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// An honest ERC-1271 wallet: a signature is valid iff its first 65 bytes (r, s, v) are the
/// owner's ECDSA signature over the hash. Bytes after the 65th are ignored, so a caller can make
/// the signature longer than 65 bytes (what routes USDC and the gateway to the contract path).
contract HonestWallet {
    bytes4 private constant MAGIC = 0x1626ba7e;
    bytes4 private constant INVALID = 0xffffffff;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length < 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC : INVALID;
    }
}
