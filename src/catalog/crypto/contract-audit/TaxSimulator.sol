// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IUniswapV2Router02 {
    function getAmountsOut(uint256 amountIn, address[] calldata path) external view returns (uint256[] memory amounts);
    function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline) external payable;
    function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline) external;
}

interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
    function approve(address spender, uint256 value) external returns (bool);
}

/// Placed by a state override at a throwaway address with an ETH balance, and called with eth_call:
/// buys `token` with `amountIn` wei through the router, then sells all it received back, and
/// reports the router's quotes beside what each leg really delivered. Nothing is ever sent.
contract TaxSimulator {
    struct Result {
        uint256 buyQuote;
        uint256 bought;
        bool buyOk;
        bytes buyError;
        uint256 sellQuote;
        uint256 sold;
        bool sellOk;
        bytes sellError;
    }

    receive() external payable {}

    function simulate(address router, address weth, address token, uint256 amountIn) external returns (Result memory r) {
        address[] memory path = new address[](2);
        path[0] = weth;
        path[1] = token;
        try IUniswapV2Router02(router).getAmountsOut(amountIn, path) returns (uint256[] memory amounts) {
            r.buyQuote = amounts[1];
        } catch (bytes memory error) {
            r.buyError = error;
            return r;
        }
        uint256 before = IERC20Balance(token).balanceOf(address(this));
        try IUniswapV2Router02(router).swapExactETHForTokensSupportingFeeOnTransferTokens{value: amountIn}(0, path, address(this), block.timestamp) {
            r.buyOk = true;
        } catch (bytes memory error) {
            r.buyError = error;
            return r;
        }
        r.bought = IERC20Balance(token).balanceOf(address(this)) - before;
        if (r.bought == 0) return r;

        path[0] = token;
        path[1] = weth;
        try IERC20Balance(token).approve(router, r.bought) returns (bool) {} catch (bytes memory error) {
            r.sellError = error;
            return r;
        }
        try IUniswapV2Router02(router).getAmountsOut(r.bought, path) returns (uint256[] memory amounts) {
            r.sellQuote = amounts[1];
        } catch (bytes memory error) {
            r.sellError = error;
            return r;
        }
        uint256 ethBefore = address(this).balance;
        try IUniswapV2Router02(router).swapExactTokensForETHSupportingFeeOnTransferTokens(r.bought, 0, path, address(this), block.timestamp) {
            r.sellOk = true;
            r.sold = address(this).balance - ethBefore;
        } catch (bytes memory error) {
            r.sellError = error;
        }
    }
}
