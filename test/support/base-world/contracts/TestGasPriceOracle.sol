// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Stands in for the OP Stack GasPriceOracle predeploy: getL1Fee grows linearly with the size of
/// the serialized transaction, so a test can compute exactly what the oracle answered.
contract TestGasPriceOracle {
    uint256 public constant FEE_PER_BYTE = 1_000_000; // wei
    uint256 public constant FIXED_FEE = 50_000_000; // wei

    function getL1Fee(bytes calldata data) external pure returns (uint256) {
        return FIXED_FEE + FEE_PER_BYTE * data.length;
    }

    function decimals() external pure returns (uint256) {
        return 6;
    }

    function isFjord() external pure returns (bool) {
        return true;
    }
}
